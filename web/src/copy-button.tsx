// A copy-to-clipboard button: navigator.clipboard where the page may use it, else a hidden
// textarea and execCommand('copy') (plain-http LAN hosts are not a secure context). The outcome
// is also announced to screen readers through a polite live region beside the button.
import { useState } from 'react';

function fallbackCopy(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

/** Copies `text`; true when it reached the clipboard. */
export async function copyText(text: string): Promise<boolean> {
  if (window.isSecureContext && navigator.clipboard !== undefined) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // Denied (no permission, no focus): try the old way.
    }
  }
  return fallbackCopy(text);
}

const SAID = { copied: 'Copied to the clipboard', failed: 'Copy failed: select the text' };

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  // Bumped on every outcome: a new node in the live region is announced even when it repeats.
  const [said, setSaid] = useState(0);
  const onClick = (): void => {
    void copyText(text).then((ok) => {
      setState(ok ? 'copied' : 'failed');
      setSaid((n) => n + 1);
    });
  };
  return (
    <>
      <button type="button" className="copy" onClick={onClick}>
        {state === 'copied' ? 'Copied' : state === 'failed' ? SAID.failed : label}
      </button>
      <span className="visually-hidden" role="status" aria-live="polite">
        {state !== 'idle' && <span key={said}>{SAID[state]}</span>}
      </span>
    </>
  );
}
