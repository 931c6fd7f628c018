/**
 * Edit details (spec document 2, "Move, rename, folder change"): display name, description, tags,
 * search setting, folder and Top-level folder — offering exactly the move targets the api allows
 * (GET …/move-targets; for platform administrators people too, searched and paged). One PATCH with
 * the fields that changed; a refusal (a move onto an existing file names it) is the server's own
 * message, shown in the dialog, which stays open.
 */
import { useEffect, useMemo, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  Button as AriaButton,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Radio,
  RadioGroup,
  SearchField,
  Select,
  SelectValue,
  Tag,
  TagGroup,
  TagList,
  Text,
  TextField,
} from 'react-aria-components';
import { ChevronDown, X } from 'lucide-react';
import { api, messageOf, unwrap, type paths } from '../../api/client';
import type { Resource } from '../../api/types';
import { useSession } from '../../app/session';
import { Button } from '../../ui/Button';
import { Dialog, DialogActions } from '../../ui/Dialog';
import { ErrorMessage } from '../../ui/Alert';
import { Field } from '../../ui/Field';
import { searchSettings, targetLabel, type SearchSetting } from './labels';
import { refreshAfterChange, useLibraryNames, useMoveTargets } from './queries';

/** The Top-level folder choice that opens the people search (no library text looks like it). */
const PEOPLE = '(people)';
const peoplePage = 50;

type UpdateBody = NonNullable<paths['/api/v1/resources/{id}']['patch']['requestBody']>['content']['application/json'];

export function EditDetailsDialog(props: { resource: Resource; isOpen: boolean; onOpenChange(open: boolean): void; onSaved(message: string): void }) {
  return (
    <Dialog title="Edit details" isOpen={props.isOpen} onOpenChange={props.onOpenChange} wide>
      {props.isOpen ? <EditDetailsForm {...props} /> : null}
    </Dialog>
  );
}

function EditDetailsForm({ resource, onOpenChange, onSaved }: { resource: Resource; onOpenChange(open: boolean): void; onSaved(message: string): void }) {
  const { subject } = useSession();
  const queryClient = useQueryClient();
  const [displayName, setDisplayName] = useState(resource.display_name);
  const [description, setDescription] = useState(resource.description);
  const [tags, setTags] = useState<string[]>(resource.tags);
  const [newTag, setNewTag] = useState('');
  const [searchSetting, setSearchSetting] = useState<SearchSetting>(resource.search_setting);
  const [folder, setFolder] = useState(resource.path);
  const [topLevel, setTopLevel] = useState(resource.library);
  const [person, setPerson] = useState<string | undefined>();
  const canMove = resource.allowed_actions.move_targets.length > 0 || resource.allowed_actions.move_to_people;

  const library = topLevel === PEOPLE ? person : topLevel;
  const save = useMutation({
    mutationFn: async (body: UpdateBody) => unwrap(await api.PATCH('/api/v1/resources/{id}', { params: { path: { id: resource.id } }, body })),
    onSuccess: async (saved) => {
      const moved = saved.library !== resource.library || saved.path !== resource.path;
      onSaved(moved ? 'Details saved; the file moved.' : 'Details saved.');
      onOpenChange(false);
      await refreshAfterChange(queryClient);
    },
  });

  function addTag() {
    const tag = newTag.trim();
    if (tag && !tags.includes(tag)) setTags([...tags, tag]);
    setNewTag('');
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (save.isPending) return;
    const pending = newTag.trim();
    const finalTags = pending && !tags.includes(pending) ? [...tags, pending] : tags;
    const body: UpdateBody = {};
    if (displayName !== resource.display_name) body.display_name = displayName;
    if (description !== resource.description) body.description = description;
    if (finalTags.join('\u0000') !== resource.tags.join('\u0000')) body.tags = finalTags;
    if (searchSetting !== resource.search_setting) body.search_setting = searchSetting;
    if (library !== undefined && library !== resource.library) body.library = library;
    if (folder.trim() !== resource.path) body.path = folder.trim();
    if (Object.keys(body).length === 0) {
      onOpenChange(false);
      return;
    }
    save.mutate(body);
  }

  return (
    <form className="edit-details" onSubmit={submit}>
      <div className="edit-details-column">
        <Field label="Display name" value={displayName} onChange={setDisplayName} isRequired maxLength={500} autoFocus />
        <Field label="Description" value={description} onChange={setDescription} multiline />
        <TagEditor tags={tags} onChange={setTags} newTag={newTag} onNewTagChange={setNewTag} onAdd={addTag} />
      </div>
      <div className="edit-details-column">
        <RadioGroup className="field radio-field" value={searchSetting} onChange={(v) => setSearchSetting(v as SearchSetting)}>
          <Label className="field-label">Search setting</Label>
          <div className="radio-options">
            {searchSettings.map((s) => (
              <Radio key={s.value} value={s.value} className="radio">
                <span className="radio-label">{s.label}</span> <span className="radio-description">{s.description}</span>
              </Radio>
            ))}
          </div>
        </RadioGroup>
        {canMove ? (
          <TopLevelChoice resource={resource} subject={subject} value={topLevel} onChange={setTopLevel} person={person} onPersonChange={setPerson} />
        ) : null}
        <Field
          label="Folder"
          value={folder}
          onChange={setFolder}
          description="Folder path inside the top-level folder, e.g. reports/2024: lowercase letters, digits and hyphens; empty for the top level."
        />
      </div>
      <ErrorMessage>{save.isError ? messageOf(save.error) : undefined}</ErrorMessage>
      <DialogActions>
        <Button slot="close">Cancel</Button>
        <Button type="submit" variant="primary">
          {save.isPending ? 'Saving…' : 'Save'}
        </Button>
      </DialogActions>
    </form>
  );
}

function TagEditor(props: { tags: string[]; onChange(tags: string[]): void; newTag: string; onNewTagChange(v: string): void; onAdd(): void }) {
  function onKeyDown(event: KeyboardEvent) {
    if (event.key === 'Enter') {
      // Enter adds the tag (and does not submit the dialog).
      event.preventDefault();
      props.onAdd();
    }
  }
  return (
    <div className="field tag-editor">
      <TagGroup onRemove={(keys) => props.onChange(props.tags.filter((t) => !keys.has(t)))}>
        <Label className="field-label">Tags</Label>
        <TagList className="tag-list" renderEmptyState={() => <span className="muted">No tags</span>}>
          {props.tags.map((tag) => (
            <Tag key={tag} id={tag} textValue={tag} className="tag">
              {tag}
              <AriaButton slot="remove" className="tag-remove" aria-label={`Remove tag ${tag}`}>
                <X aria-hidden size={12} />
              </AriaButton>
            </Tag>
          ))}
        </TagList>
      </TagGroup>
      <div className="tag-add">
        <TextField className="tag-add-field" value={props.newTag} onChange={props.onNewTagChange} maxLength={100} onKeyDown={onKeyDown}>
          <Label className="visually-hidden">New tag</Label>
          <Input className="field-input" placeholder="New tag" />
        </TextField>
        <Button onPress={props.onAdd}>Add tag</Button>
      </div>
    </div>
  );
}

function TopLevelChoice(props: {
  resource: Resource;
  subject: string;
  value: string;
  onChange(v: string): void;
  person: string | undefined;
  onPersonChange(p: string | undefined): void;
}) {
  const { resource, subject } = props;
  const names = useLibraryNames();
  // The libraries GET …/move-targets offers (allowed_actions.move_targets says the same until it answers).
  const targets = useMoveTargets(resource.id);
  const libraries = targets.data ?? resource.allowed_actions.move_targets;
  const options = useMemo(() => {
    const list = [{ id: resource.library, label: `${targetLabel(resource.library, subject, names)} (where it is now)` }];
    for (const library of libraries) list.push({ id: library, label: targetLabel(library, subject, names) });
    if (resource.allowed_actions.move_to_people) list.push({ id: PEOPLE, label: 'A person’s library (People)…' });
    return list;
  }, [resource, subject, names, libraries]);
  return (
    <>
      <Select className="field select-field" value={props.value} onChange={(v) => v !== null && props.onChange(String(v))}>
        <Label className="field-label">Top-level folder</Label>
        <AriaButton className="field-input select-button">
          <SelectValue />
          <ChevronDown aria-hidden size={16} />
        </AriaButton>
        <Text slot="description" className="field-description">
          Moving keeps the id, versions, registered tables and read history; the old address stays an alias.
        </Text>
        <Popover className="select-popover">
          <ListBox className="select-list" items={options}>
            {(o) => (
              <ListBoxItem id={o.id} className="select-option" textValue={o.label}>
                {o.label}
              </ListBoxItem>
            )}
          </ListBox>
        </Popover>
      </Select>
      {props.value === PEOPLE ? <PersonPicker resource={resource} person={props.person} onChange={props.onPersonChange} /> : null}
    </>
  );
}

/** People the caller may move the file to (platform administrators): searched by subject, paged. */
function PersonPicker({ resource, person, onChange }: { resource: Resource; person: string | undefined; onChange(p: string | undefined): void }) {
  const [q, setQ] = useState('');
  const [query, setQuery] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setQuery(q.trim()), 250);
    return () => clearTimeout(timer);
  }, [q]);
  const people = useInfiniteQuery({
    queryKey: ['resource', resource.id, 'move-targets', query],
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) =>
      unwrap(
        await api.GET('/api/v1/resources/{id}/move-targets', {
          params: { path: { id: resource.id }, query: { limit: peoplePage, ...(query ? { q: query } : {}), ...(pageParam ? { cursor: pageParam } : {}) } },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const items = (people.data?.pages ?? []).flatMap((p) => p.people).map((library) => ({ id: library, label: library.slice('person:'.length) }));
  return (
    <div className="field person-picker">
      <SearchField className="field" value={q} onChange={setQ}>
        <Label className="field-label">Find a person</Label>
        <Input className="field-input" placeholder="Part of their subject" />
      </SearchField>
      {people.isError ? <ErrorMessage>{messageOf(people.error)}</ErrorMessage> : null}
      <ListBox
        aria-label="People"
        className="people-list"
        items={items}
        selectionMode="single"
        selectedKeys={person ? [person] : []}
        onSelectionChange={(keys) => {
          const [first] = keys === 'all' ? [] : [...keys];
          onChange(first === undefined ? undefined : String(first));
        }}
        renderEmptyState={() => <span className="muted">{people.isPending ? 'Loading people…' : 'Nobody matches'}</span>}
      >
        {(p) => (
          <ListBoxItem id={p.id} className="select-option" textValue={p.label}>
            {p.label}
          </ListBoxItem>
        )}
      </ListBox>
      {people.hasNextPage ? (
        <Button className="button-small" onPress={() => void people.fetchNextPage()}>
          {people.isFetchingNextPage ? 'Loading…' : 'More people'}
        </Button>
      ) : null}
    </div>
  );
}
