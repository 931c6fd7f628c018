/** Markdown, rendered and sanitised (markdown.ts), as a document section. */
import { useMemo } from 'react';
import { markdownHtml } from './markdown';

export default function Markdown({ text }: { text: string }) {
  const html = useMemo(() => markdownHtml(text), [text]);
  // Sanitised by DOMPurify (markdown.ts); the page's CSP forbids inline script and outside requests besides.
  return <div className="asset-markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
