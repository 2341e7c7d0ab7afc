import { useState } from "preact/hooks";

/** Copies `text` to the clipboard and says so. */
export function CopyButton({ text, label = "Copy" }: { text: string; label?: string }) {
  const [done, setDone] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // no clipboard permission (e.g. plain http on another host): select the text instead
      const range = document.createRange();
      const node = document.querySelector("[data-copy-source]");
      if (node) {
        range.selectNodeContents(node);
        getSelection()?.removeAllRanges();
        getSelection()?.addRange(range);
      }
    }
    setDone(true);
    setTimeout(() => setDone(false), 2000);
  };
  return (
    <button type="button" class="button" onClick={copy} aria-live="polite">
      {done ? "Copied" : label}
    </button>
  );
}
