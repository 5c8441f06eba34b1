/** Starts each task once the one queued before it has settled, whatever it answered. */
export type TaskQueue = <T>(task: () => Promise<T>) => Promise<T>;

/**
 * A queue whose first task waits for `after` to settle. A task's failure does not stop the ones
 * behind it: each decides for itself what an earlier failure means (PostgreSQL refuses the
 * statements of an aborted transaction on its own).
 */
export function oneAtATime(after: Promise<unknown> = Promise.resolve()): TaskQueue {
  let last: Promise<unknown> = after.catch(() => {});
  return <T>(task: () => Promise<T>): Promise<T> => {
    const result = last.then(task);
    last = result.catch(() => {});
    return result;
  };
}
