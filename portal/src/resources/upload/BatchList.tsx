/**
 * The files of a batch, one row each (virtualized: a batch may hold 5,000): where it came from, its
 * size, whether it is an image usable directly in generated documents, and its state — waiting,
 * refused before sending, sending with its own progress, created / revised / unchanged, failed
 * with the server's words, cancelled. Below it the batch's progress: files and bytes, time left.
 */
import { useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ImageIcon } from 'lucide-react';
import { formatBytes } from '../../ui/format';
import type { ItemState, UploadQueue } from './queue';
import { timeLeft } from './rules';
import type { BatchItem } from './sources';

/** A row's height before it is measured (a failed file's words may wrap onto more lines). */
const rowHeight = 44;

function stateWords(state: ItemState | undefined, item: BatchItem): { text: string; tone: 'ok' | 'bad' | 'plain' } {
  switch (state?.kind) {
    case undefined:
    case 'waiting':
      return { text: 'Waiting', tone: 'plain' };
    case 'refused':
      return { text: `Refused: ${state.message}`, tone: 'bad' };
    case 'sending':
      return { text: `Sending ${item.size > 0 ? Math.min(100, Math.floor((state.loaded / item.size) * 100)) : 0}%`, tone: 'plain' };
    case 'done':
      return { text: state.outcome === 'created' ? 'Created' : state.outcome === 'revised' ? 'Revised (new version)' : 'Unchanged', tone: 'ok' };
    case 'failed':
      return { text: `Failed${state.status ? ` (${state.status})` : ''}: ${state.message}`, tone: 'bad' };
    case 'cancelled':
      return { text: 'Cancelled', tone: 'plain' };
  }
}

export function BatchList(props: { items: readonly BatchItem[]; queue: UploadQueue | null; version: number }) {
  const { items, queue } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: items.length, getScrollElement: () => scrollRef.current, estimateSize: () => rowHeight, overscan: 8 });
  return (
    <div ref={scrollRef} className="batch-list" tabIndex={0} aria-label="Files of the batch" role="region">
      <ul role="list" className="batch-rows" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((v) => {
          const item = items[v.index]!;
          const state = queue ? queue.state(item) : item.refusal ? ({ kind: 'refused', message: item.refusal } as const) : undefined;
          const words = stateWords(state, item);
          return (
            <li key={item.id} ref={virtualizer.measureElement} data-index={v.index} className="batch-row" aria-setsize={items.length} aria-posinset={v.index + 1} style={{ transform: `translateY(${v.start}px)` }}>
              <span className="batch-name" title={item.shown}>
                {item.shown}
              </span>
              <span className="batch-size">{formatBytes(item.size)}</span>
              <span className="batch-image">
                {item.image ? (
                  <span className="batch-badge" title="PNG, JPEG, GIF, WebP, AVIF or SVG: usable directly in generated documents">
                    <ImageIcon aria-hidden size={14} /> usable in documents
                  </span>
                ) : null}
              </span>
              <span className={`batch-state batch-state-${words.tone}`}>
                {state?.kind === 'sending' ? <progress className="batch-file-progress" max={item.size || 1} value={Math.min(state.loaded, item.size)} aria-label={`Sending ${item.shown}`} /> : null}
                {words.text}
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** The batch's progress bar and its words: files and bytes done, time left. */
export function BatchProgress({ queue }: { queue: UploadQueue; version: number }) {
  const p = queue.progress();
  const left = queue.running ? timeLeft(p.bytesSent, p.bytes, p.elapsedMs) : '';
  return (
    <div className="batch-progress">
      <progress max={p.bytes || 1} value={p.bytesSent} aria-label="Batch progress" aria-valuetext={`${p.filesDone} of ${p.files} files`} />
      <span>
        {`${p.filesDone.toLocaleString()} of ${p.files.toLocaleString()} files · ${formatBytes(p.bytesSent)} of ${formatBytes(p.bytes)}`}
        {left ? ` · ${left}` : ''}
      </span>
    </div>
  );
}

/** What the batch came to, once nothing is in flight. */
export function outcomeSummary(queue: UploadQueue): string {
  const { counts } = queue.progress();
  const parts = [
    counts.created ? `${counts.created} created` : '',
    counts.revised ? `${counts.revised} revised` : '',
    counts.unchanged ? `${counts.unchanged} unchanged` : '',
    counts.failed ? `${counts.failed} failed` : '',
    counts.cancelled ? `${counts.cancelled} cancelled` : '',
    counts.refused ? `${counts.refused} refused before sending` : '',
  ].filter(Boolean);
  return parts.length > 0 ? `Done: ${parts.join(', ')}.` : '';
}
