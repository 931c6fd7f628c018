/**
 * A CodeMirror view of some text: read-only in the preview pane, editable in the source editor.
 * CodeMirror itself (./codemirror) is imported when the first view mounts, never with the initial
 * route. The view is created once per mount with the text it was given (give the component a new
 * `key` to show other text); an editable view reports each change through `onChange`.
 */
import { useEffect, useRef, useState, type MutableRefObject } from 'react';
import { messageOf } from '../../api/client';
import { useTheme } from '../../app/theme';
import { ErrorMessage } from '../../ui/Alert';
import type { EditorLanguage } from '../preview/content-kind';
import type { CodeViewHandle } from './codemirror';
import './editor.css';

export type { CodeViewHandle };

export interface CodeViewProps {
  text: string;
  language: EditorLanguage;
  /** The text area's accessible name. */
  label: string;
  readOnly?: boolean;
  /** Focus the text once the view is up. */
  autoFocus?: boolean;
  onChange?: (text: string) => void;
  /** Receives the view's handle while it is mounted (null otherwise). */
  handleRef?: MutableRefObject<CodeViewHandle | null>;
}

export function CodeView(props: CodeViewProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const handle = useRef<CodeViewHandle | null>(null);
  const latest = useRef(props);
  latest.current = props;
  const { theme } = useTheme();
  const themeRef = useRef(theme);
  themeRef.current = theme;
  const [state, setState] = useState<{ ready: boolean; error?: string }>({ ready: false });

  useEffect(() => {
    let cancelled = false;
    import('./codemirror').then(
      (cm) => {
        if (cancelled || !hostRef.current) return;
        const { text, language, readOnly, label, handleRef } = latest.current;
        const view = cm.mountCodeView({
          host: hostRef.current,
          text,
          language,
          readOnly: readOnly ?? false,
          label,
          dark: themeRef.current === 'dark',
          onChange: (value) => latest.current.onChange?.(value),
        });
        handle.current = view;
        if (handleRef) handleRef.current = view;
        setState({ ready: true });
      },
      (error: unknown) => {
        if (!cancelled) setState({ ready: false, error: `The editor did not load: ${messageOf(error)}` });
      },
    );
    return () => {
      cancelled = true;
      handle.current?.destroy();
      handle.current = null;
      if (latest.current.handleRef) latest.current.handleRef.current = null;
    };
  }, []);

  useEffect(() => handle.current?.setDark(theme === 'dark'), [theme]);
  // Focus once the view is shown (the host is hidden until then, and a hidden element takes no focus).
  useEffect(() => {
    if (state.ready && latest.current.autoFocus) handle.current?.focus();
  }, [state.ready]);

  return (
    <div className="code-view" data-ready={state.ready || undefined} aria-busy={!state.ready}>
      {state.error ? <ErrorMessage>{state.error}</ErrorMessage> : !state.ready ? <p className="code-view-loading">Loading the editor…</p> : null}
      <div className="code-view-host" ref={hostRef} />
    </div>
  );
}
