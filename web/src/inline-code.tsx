// Server messages mark commands with Markdown backticks (`cairn open`); the page shows those
// spans as <code> instead of printing the backticks.
import type { ReactNode } from 'react';

/** `text` with each `…` span rendered as <code> (an unpaired backtick stays as it is). */
export function InlineCode({ text }: { text: string }): ReactNode {
  const parts = text.split(/`([^`]+)`/);
  return parts.map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part));
}
