/** The API's lists give a page, not a total: one row more than shown tells whether a next page exists. */
export const PAGE_SIZE = 50;

export function pageOf(params: URLSearchParams): number {
  const page = Number(params.get('page'));
  return Number.isInteger(page) && page > 1 ? page : 1;
}

export function pageQuery(page: number): { limit: number; offset: number } {
  return { limit: PAGE_SIZE + 1, offset: (page - 1) * PAGE_SIZE };
}

export function Pager(props: {
  page: number;
  shown: number;
  hasNext: boolean;
  onPage: (page: number) => void;
}) {
  const first = (props.page - 1) * PAGE_SIZE + 1;
  return (
    <nav class="pager" aria-label="Pages">
      <button
        type="button"
        class="secondary"
        disabled={props.page <= 1}
        onClick={() => props.onPage(props.page - 1)}
      >
        Previous
      </button>
      <span>{props.shown === 0 ? 'Nothing here' : `${first}–${first + props.shown - 1}`}</span>
      <button
        type="button"
        class="secondary"
        disabled={!props.hasNext}
        onClick={() => props.onPage(props.page + 1)}
      >
        Next
      </button>
    </nav>
  );
}
