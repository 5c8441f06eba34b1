/**
 * The failures a use case can report. They never speak HTTP: the API maps each class to a
 * status in one place, and the CLI maps them to exit codes.
 */
export class ServiceError extends Error {
  override name = 'ServiceError';
}

/** Input that cannot be accepted; the message names the field or parameter. */
export class InvalidInputError extends ServiceError {
  override name = 'InvalidInputError';
}

export class UnauthorizedError extends ServiceError {
  override name = 'UnauthorizedError';
  constructor(message = 'Unauthorized') {
    super(message);
  }
}

export class ForbiddenError extends ServiceError {
  override name = 'ForbiddenError';
}

export class NotFoundError extends ServiceError {
  override name = 'NotFoundError';
}

export class ConflictError extends ServiceError {
  override name = 'ConflictError';
}

/** The embedded store's data directory is held by another process. */
export class StoreBusyError extends ServiceError {
  override name = 'StoreBusyError';
}

/** A request carries more than the service accepts at once; the message names the limit. */
export class TooLargeError extends ServiceError {
  override name = 'TooLargeError';
}

/** A store statement ran past its time limit and was cancelled; nothing it did was kept. */
export class StoreTimeoutError extends ServiceError {
  override name = 'StoreTimeoutError';
}

/** The operation needs server configuration that is missing; the message names the setting. */
export class NotConfiguredError extends ServiceError {
  override name = 'NotConfiguredError';
}
