/** A secret the server shows only this once (a new API key, an invitation link). */
export function SecretOnce(props: { title: string; value: string; note: string; onDone: () => void }) {
  return (
    <div class="secret" role="status">
      <strong>{props.title}</strong>
      <code data-secret>{props.value}</code>
      <p class="hint">{props.note}</p>
      <div class="row">
        <button
          type="button"
          class="secondary"
          onClick={() => void navigator.clipboard?.writeText(props.value)}
        >
          Copy
        </button>
        <button type="button" onClick={props.onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
