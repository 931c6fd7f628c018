/**
 * The destination of a move inside one library (Move to of one item, and of a selection): the
 * library's folders in a combo box, "/" for the top level; a new path may be typed (the move
 * creates it). Folders that are no destination (where the items are now, a moved folder and what
 * is beneath it) are left out of the choices.
 */
import { useMemo } from 'react';
import { Button as AriaButton, ComboBox, Input, Label, ListBox, ListBoxItem, Popover, Text } from 'react-aria-components';
import { ChevronDown } from 'lucide-react';
import { useLibraryFolderPaths } from '../tree/folders';
import { folderRule } from './ActionDialog';

export const topLevel = '/';

/** The folder path a typed destination names ('' = the top level). */
export function destinationPath(value: string): string {
  return value.trim() === topLevel ? '' : value.trim().replace(/^\/+|\/+$/g, '');
}

export function FolderCombo(props: {
  library: string;
  libraryName: string;
  value: string;
  onChange(value: string): void;
  /** Whether a folder path is offered as a destination. */
  offered(path: string): boolean;
  /** Where the items are now, said under the field. */
  now: string;
}) {
  const paths = useLibraryFolderPaths(props.library);
  const { offered } = props;
  const choices = useMemo(
    () =>
      ['', ...(paths.data ?? [])].filter(offered).map((p) => ({ id: p === '' ? topLevel : p, path: p })),
    [paths.data, offered],
  );
  return (
    <ComboBox className="combo" allowsCustomValue menuTrigger="focus" inputValue={props.value} onInputChange={props.onChange} defaultItems={choices} autoFocus>
      <Label className="field-label">Move to folder in {props.libraryName}</Label>
      <div className="combo-input-row">
        <Input className="field-input" placeholder={topLevel} />
        <AriaButton className="combo-button" aria-label="Show folders">
          <ChevronDown aria-hidden size={16} />
        </AriaButton>
      </div>
      <Text slot="description" className="field-description">
        Now in {props.now}. “{topLevel}” is the top level. {folderRule}
      </Text>
      <Popover className="combo-popover">
        <ListBox className="combo-list">
          {(item: { id: string; path: string }) => (
            <ListBoxItem className="combo-item" id={item.id} textValue={item.id}>
              {item.id}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </ComboBox>
  );
}
