/**
 * A value (the canonical URI, the reference) with a Copy button. The clipboard API needs a secure
 * context; where it is missing or refused the value is selected instead, so Ctrl/Cmd-C copies it.
 */
import { useEffect, useRef, useState } from 'react';
import { Copy } from 'lucide-react';
import { Button } from '../../ui/Button';

export function CopyValue({ value, label }: { value: string; label: string }) {
  const valueRef = useRef<HTMLElement>(null);
  const [said, setSaid] = useState('');
  useEffect(() => {
    if (!said) return;
    const timer = setTimeout(() => setSaid(''), 4000);
    return () => clearTimeout(timer);
  }, [said]);

  async function copy() {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(value);
      setSaid('Copied');
    } catch {
      const node = valueRef.current;
      if (node) window.getSelection()?.selectAllChildren(node);
      setSaid('Selected: press Ctrl+C (⌘C) to copy');
    }
  }

  return (
    <div className="copy-value">
      <code ref={valueRef} className="copy-value-text">
        {value}
      </code>
      <Button className="button-small" onPress={() => void copy()} aria-label={`Copy ${label}`}>
        <Copy aria-hidden size={14} /> Copy
      </Button>
      <span className="copy-value-status" role="status">
        {said}
      </span>
    </div>
  );
}
