/**
 * "Edit source" (issue 36, "Source editor"): a text-family file within the inline preview bound
 * (GET /api/v1/portal/settings `inline_preview_bytes`) opens in CodeMirror in a wide dialog, where
 * Save (or Ctrl/Cmd-S) writes a new version with PUT …/source, which the api labels "edited in the
 * portal". Rendered only where the api would accept that write (`allowed_actions.edit_source`, within the inline limit).
 */
import { useState } from 'react';
import { Pencil } from 'lucide-react';
import type { Resource } from '../../api/types';
import { Button } from '../../ui/Button';
import { isInlineText } from '../preview/content-kind';
import { useInlinePreviewBytes } from '../preview/queries';
import { SourceEditorDialog } from './SourceEditorDialog';

export function EditSourceButton({ resource }: { resource: Resource }) {
  const inlineBytes = useInlinePreviewBytes();
  const [open, setOpen] = useState(false);
  const offered = resource.allowed_actions.edit_source && isInlineText(resource, inlineBytes);
  // An open editor stays open when a save makes the file larger than the bound: it closes itself.
  if (!offered && !open) return null;
  return (
    <>
      {offered ? (
        <Button onPress={() => setOpen(true)}>
          <Pencil aria-hidden size={16} /> Edit source
        </Button>
      ) : null}
      {/* Mounted only while open: its navigation guard (a router blocker; the router consults one) exists only then. */}
      {open ? <SourceEditorDialog resource={resource} isOpen onClose={() => setOpen(false)} /> : null}
    </>
  );
}
