/**
 * A statement's promise awaited later than it is made, with statements sent after it meanwhile:
 * its failure is met where it is awaited, rather than reported as unhandled should the code in
 * between throw first.
 */
export function awaitedLater<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}
