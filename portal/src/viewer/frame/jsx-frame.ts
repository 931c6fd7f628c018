/**
 * The JSX runtime of the sandboxed frame a JSX asset is shown in (api/portal/asset-frame.ts): the
 * frame runs on an opaque origin whose CSP allows no request, so everything the component needs is
 * here — React, and Sucrase to compile the source. The source arrives as JSON data in the page
 * (#jsx-source); its default export (else a component named App, else the first exported function)
 * is rendered. Imports other than react are refused with a message: nothing can be fetched.
 */
import * as React from 'react';
import * as ReactDOM from 'react-dom';
import * as ReactDOMClient from 'react-dom/client';
import * as JsxRuntime from 'react/jsx-runtime';
import { transform } from 'sucrase';

interface SourceData {
  source: string;
  theme: 'light' | 'dark' | null;
}

const modules: Record<string, unknown> = {
  react: React,
  'react-dom': ReactDOM,
  'react-dom/client': ReactDOMClient,
  'react/jsx-runtime': JsxRuntime,
  'react/jsx-dev-runtime': JsxRuntime,
};

function setUp(theme: 'light' | 'dark'): void {
  const root = document.documentElement;
  root.dataset.theme = theme;
  root.style.colorScheme = theme;
  document.body.style.margin = '0';
  document.body.style.padding = '16px';
  document.body.style.fontFamily = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
  document.body.style.background = theme === 'dark' ? '#111418' : '#ffffff';
  document.body.style.color = theme === 'dark' ? '#e6e9ed' : '#1b1f24';
}

function showError(message: string): void {
  const box = document.getElementById('root') ?? document.body;
  box.replaceChildren();
  const p = document.createElement('pre');
  p.setAttribute('role', 'alert');
  p.style.whiteSpace = 'pre-wrap';
  p.style.color = '#b42318';
  p.textContent = `This JSX could not be shown: ${message}`;
  box.append(p);
}

class Boundary extends React.Component<{ children: React.ReactNode }, { error?: Error }> {
  override state: { error?: Error } = {};
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    if (this.state.error) return React.createElement('pre', { role: 'alert', style: { whiteSpace: 'pre-wrap', color: '#b42318' } }, `This JSX failed while rendering: ${this.state.error.message}`);
    return this.props.children;
  }
}

function run(): void {
  const data = JSON.parse(document.getElementById('jsx-source')?.textContent ?? '{}') as SourceData;
  setUp(data.theme ?? (window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'));
  if (typeof data.source !== 'string') return showError('no source');
  const { code } = transform(data.source, { transforms: ['jsx', 'typescript', 'imports'], jsxRuntime: 'automatic', production: true });
  const module = { exports: {} as Record<string, unknown> };
  const require = (name: string): unknown => {
    if (name in modules) return modules[name];
    throw new Error(`"${name}" cannot be imported here: a shared JSX asset runs without network access, with react only`);
  };
  // The compiled component runs here, in the frame's opaque origin; its CSP allows this eval and no request.
  const factory = new Function('require', 'module', 'exports', 'React', `${code}\n;return typeof App === 'function' ? App : undefined;`) as (
    r: typeof require,
    m: typeof module,
    e: Record<string, unknown>,
    react: typeof React,
  ) => unknown;
  const app = factory(require, module, module.exports, React);
  const exported = module.exports.default ?? app ?? Object.values(module.exports).find((v) => typeof v === 'function');
  if (typeof exported !== 'function' && (typeof exported !== 'object' || exported === null)) {
    return showError('it exports no component: write `export default function App() { … }`');
  }
  const root = ReactDOMClient.createRoot(document.getElementById('root')!);
  root.render(React.createElement(Boundary, null, React.createElement(exported as React.ComponentType)));
}

try {
  run();
} catch (error) {
  showError(error instanceof Error ? error.message : String(error));
}
