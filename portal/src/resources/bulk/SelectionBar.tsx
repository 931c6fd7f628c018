/**
 * The selection bar above the listing while more than one row is selected: how many and what, and
 * the bulk actions the selection is offered (each where the server accepts it for every item);
 * Clear selection keeps the focused row selected alone.
 */
import { Button } from '../../ui/Button';
import { actionLabels, itemsLabel, offeredActions, type BulkAction, type BulkItem } from './items';
import './bulk.css';

export function SelectionBar(props: { count: number; items: BulkItem[] | undefined; onAction(action: BulkAction): void; onClear(): void }) {
  const offered = props.items ? offeredActions(props.items) : [];
  return (
    <div className="selection-bar" role="toolbar" aria-label="Selection">
      <span className="selection-count">
        {props.count.toLocaleString()} selected{props.items ? ` (${itemsLabel(props.items)})` : ''}
      </span>
      <div className="selection-actions">
        {offered.length === 0 ? (
          <span className="selection-note">{props.items ? 'No action is allowed on all of them.' : 'Bulk actions work on files and folders.'}</span>
        ) : null}
        {offered.map((a) => (
          <Button key={a} variant={a === 'delete' ? 'danger' : 'plain'} onPress={() => props.onAction(a)}>
            {actionLabels[a]}
          </Button>
        ))}
        <Button onPress={props.onClear}>Clear selection</Button>
      </div>
    </div>
  );
}
