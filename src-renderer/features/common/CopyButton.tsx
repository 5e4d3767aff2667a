import { useState } from 'react';
import { copyText } from './copy-text';

export function CopyButton({
  text,
  label = 'Copy',
  className = 'small',
}: {
  text: string | (() => string);
  label?: string;
  className?: string;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      className={className}
      aria-label={label}
      title={label}
      onClick={() => {
        void copyText(typeof text === 'function' ? text() : text).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 1200);
        });
      }}
    >
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}
