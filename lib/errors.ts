// Errors that are the asker's: a bad query parameter (400) or an unknown id (404). Their message is
// shown as it is (`expose`): by the API as the body, by pages as a notice, by the CLI as one line.

export class InvalidQueryError extends Error {
  readonly status = 400;
  readonly expose = true;
}

export class NotFoundError extends Error {
  readonly status = 404;
  readonly expose = true;
}
