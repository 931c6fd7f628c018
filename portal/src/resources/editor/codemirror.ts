/**
 * CodeMirror 6, loaded on demand (CodeView imports this module dynamically, so the initial route's
 * JavaScript holds none of it; each language is a chunk of its own, fetched when a file needs it).
 *
 * The Content-Security-Policy: CodeMirror's styles are generated at run time (style-mod). Mounted in
 * a document they go into a <style> element, which the portal's policy refuses ('unsafe-inline'
 * is never added; a nonce would need a per-response policy). Mounted in a shadow root they go into
 * a constructed stylesheet adopted by that root (`adoptedStyleSheets`), which is no inline style
 * and needs no exception. So each view lives in an open shadow root of its host element; the
 * theme's colours are the page's custom properties, which inherit into it, so light and dark
 * follow the page.
 */
import { basicSetup, minimalSetup } from 'codemirror';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import { EditorView, lineNumbers } from '@codemirror/view';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
// A dependency of @codemirror/language (its tag set): the names the highlight style keys on.
import { tags as t } from '@lezer/highlight';
import type { EditorLanguage } from '../preview/content-kind';

export interface CodeViewOptions {
  /** The element whose shadow root holds the view. */
  host: HTMLElement;
  text: string;
  language: EditorLanguage;
  readOnly: boolean;
  /** The accessible name of the text area. */
  label: string;
  dark: boolean;
  onChange?: (text: string) => void;
}

export interface CodeViewHandle {
  text(): string;
  focus(): void;
  setDark(dark: boolean): void;
  destroy(): void;
}

const languages: Record<Exclude<EditorLanguage, 'plain'>, () => Promise<Extension>> = {
  markdown: () => import('@codemirror/lang-markdown').then((m) => m.markdown()),
  json: () => import('@codemirror/lang-json').then((m) => m.json()),
  javascript: () => import('@codemirror/lang-javascript').then((m) => m.javascript()),
  jsx: () => import('@codemirror/lang-javascript').then((m) => m.javascript({ jsx: true })),
  typescript: () => import('@codemirror/lang-javascript').then((m) => m.javascript({ typescript: true })),
  tsx: () => import('@codemirror/lang-javascript').then((m) => m.javascript({ jsx: true, typescript: true })),
  python: () => import('@codemirror/lang-python').then((m) => m.python()),
  sql: () => import('@codemirror/lang-sql').then((m) => m.sql()),
  html: () => import('@codemirror/lang-html').then((m) => m.html()),
  css: () => import('@codemirror/lang-css').then((m) => m.css()),
  yaml: () => import('@codemirror/lang-yaml').then((m) => m.yaml()),
  xml: () => import('@codemirror/lang-xml').then((m) => m.xml()),
};

/** Token colours as the page's custom properties (editor.css sets them per theme, each ≥ 4.5:1 on the editor's background). */
const highlightStyle = HighlightStyle.define([
  { tag: [t.keyword, t.modifier, t.controlKeyword, t.operatorKeyword, t.definitionKeyword, t.moduleKeyword], color: 'var(--cm-keyword)' },
  { tag: [t.string, t.special(t.string), t.regexp, t.inserted], color: 'var(--cm-string)' },
  { tag: [t.comment, t.lineComment, t.blockComment, t.docComment], color: 'var(--cm-comment)', fontStyle: 'italic' },
  { tag: [t.number, t.bool, t.null, t.atom, t.unit], color: 'var(--cm-number)' },
  { tag: [t.propertyName, t.attributeName, t.labelName], color: 'var(--cm-property)' },
  { tag: [t.typeName, t.className, t.namespace, t.function(t.variableName), t.function(t.propertyName)], color: 'var(--cm-type)' },
  { tag: [t.tagName, t.angleBracket], color: 'var(--cm-tag)' },
  { tag: [t.meta, t.processingInstruction, t.documentMeta, t.annotation], color: 'var(--cm-meta)' },
  { tag: [t.heading, t.heading1, t.heading2, t.heading3], color: 'var(--cm-heading)', fontWeight: '700' },
  { tag: t.strong, fontWeight: '700' },
  { tag: t.emphasis, fontStyle: 'italic' },
  { tag: t.strikethrough, textDecoration: 'line-through' },
  { tag: [t.link, t.url], color: 'var(--cm-link)', textDecoration: 'underline' },
  { tag: [t.invalid, t.deleted], color: 'var(--cm-invalid)' },
]);

const pageTheme = EditorView.theme({
  '&': { color: 'var(--fg)', backgroundColor: 'var(--bg)', fontSize: '13px', border: '1px solid var(--border)', borderRadius: 'var(--radius)' },
  '&.cm-focused': { outline: '2px solid var(--focus)', outlineOffset: '1px' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.5' },
  '.cm-content': { caretColor: 'var(--fg)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--fg)' },
  '.cm-gutters': { backgroundColor: 'var(--bg-subtle)', color: 'var(--fg-muted)', borderRight: '1px solid var(--border)', borderRadius: 'var(--radius) 0 0 var(--radius)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--bg-hover)', color: 'var(--fg)' },
  '.cm-activeLine': { backgroundColor: 'var(--cm-active-line)' },
  '.cm-panels': { backgroundColor: 'var(--bg-subtle)', color: 'var(--fg)' },
  '.cm-panels input, .cm-panels button': { font: 'inherit', color: 'var(--fg)', backgroundColor: 'var(--bg)', border: '1px solid var(--border)', borderRadius: '4px' },
  '.cm-tooltip': { backgroundColor: 'var(--bg-raised)', color: 'var(--fg)', border: '1px solid var(--border)' },
  '.cm-foldPlaceholder': { backgroundColor: 'var(--bg-hover)', color: 'var(--fg)', border: '1px solid var(--border)' },
});

/** Heights: the preview pane's read-only view grows to its bound; the editor fills its dialog. */
const readOnlySize = EditorView.theme({ '&': { maxHeight: '55vh' }, '.cm-scroller': { overflow: 'auto' } });
// The dialog is at most 90vh: its title, notes, status and buttons take about 330 px of it.
const editorSize = EditorView.theme({ '&': { height: 'clamp(180px, calc(90vh - 330px), 680px)' }, '.cm-scroller': { overflow: 'auto' } });

export function mountCodeView(options: CodeViewOptions): CodeViewHandle {
  const root = options.host.shadowRoot ?? options.host.attachShadow({ mode: 'open' });
  root.replaceChildren();
  const language = new Compartment();
  const darkness = new Compartment();
  const extensions: Extension[] = [
    options.readOnly ? [minimalSetup, lineNumbers(), EditorView.lineWrapping, EditorState.readOnly.of(true), readOnlySize] : [basicSetup, editorSize],
    syntaxHighlighting(highlightStyle),
    pageTheme,
    darkness.of(EditorView.darkTheme.of(options.dark)),
    language.of([]),
    EditorView.contentAttributes.of({ 'aria-label': options.label }),
    EditorView.updateListener.of((update) => {
      if (update.docChanged) options.onChange?.(update.state.doc.toString());
    }),
  ];
  const view = new EditorView({ parent: root, root, state: EditorState.create({ doc: options.text, extensions }) });
  let destroyed = false;
  if (options.language !== 'plain') {
    languages[options.language]().then(
      (support) => {
        if (!destroyed) view.dispatch({ effects: language.reconfigure(support) });
      },
      () => {
        // The language chunk did not load (offline, a new build): the text stays plain.
      },
    );
  }
  return {
    text: () => view.state.doc.toString(),
    focus: () => view.focus(),
    setDark: (dark) => view.dispatch({ effects: darkness.reconfigure(EditorView.darkTheme.of(dark)) }),
    destroy: () => {
      destroyed = true;
      view.destroy();
      root.replaceChildren();
    },
  };
}
