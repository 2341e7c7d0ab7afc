/** The one error type the app throws on purpose; rendered as {error:{code,message,metadata}} with HTTP status = code. */
export class GatewayError extends Error {
  override name = "GatewayError";
  constructor(
    public readonly status: number,
    message: string,
    public readonly metadata?: Record<string, unknown>,
    public readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, metadata?: Record<string, unknown>) => new GatewayError(400, message, metadata);
export const notFound = (message: string) => new GatewayError(404, message);
export const conflict = (message: string, metadata?: Record<string, unknown>) => new GatewayError(409, message, metadata);

export type ErrorBody = { error: { code: number; message: string; metadata?: Record<string, unknown> | null } };

export function errorBody(status: number, message: string, metadata?: Record<string, unknown>): ErrorBody {
  return { error: metadata ? { code: status, message, metadata } : { code: status, message } };
}
