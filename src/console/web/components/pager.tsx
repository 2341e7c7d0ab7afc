/**
 * Newer and Older under a keyset-paged list: `cursors` are the next_cursor of each page read so far
 * (empty: the newest page); Older follows the page's next_cursor, Newer goes back one.
 */
export function Pager({ cursors, next, onChange }: { cursors: string[]; next: string | null; onChange: (cursors: string[]) => void }) {
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" class="button" disabled={cursors.length === 0} onClick={() => onChange(cursors.slice(0, -1))}>
        Newer
      </button>
      <button type="button" class="button" disabled={!next} onClick={() => next && onChange([...cursors, next])}>
        Older
      </button>
    </nav>
  );
}
