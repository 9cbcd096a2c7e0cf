// A failure the player reports to the host: ERROR {code, message} and video.errored {error_code}.

export class PlayerError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "PlayerError";
  }
}
