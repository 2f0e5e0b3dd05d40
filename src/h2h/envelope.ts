// the response envelope of docs/supplier.md#replies, as kios answers it on /h2h/v1:
// { success, code, message, data, errors, meta } with the HTTP status of each code.

export type HttpStatus = 200 | 400 | 401 | 403 | 404 | 405 | 429 | 500 | 502 | 503;

interface Envelope {
  success: boolean;
  code: string;
  message: string;
  data: unknown;
  errors: Record<string, string[]> | null;
  meta: Record<string, unknown> | null;
}

export interface Reply {
  status: HttpStatus;
  body: Envelope;
  headers?: Record<string, string>;
}

export function ok(
  code: string,
  message: string,
  data: unknown,
  meta: Record<string, unknown> | null = null,
): Reply {
  return { status: 200, body: { success: true, code, message, data, errors: null, meta } };
}

/** a business outcome that is not a success (HTTP 200, success false) */
export function declined(code: string, message: string, data: unknown = null): Reply {
  return { status: 200, body: { success: false, code, message, data, errors: null, meta: null } };
}

export function failure(status: HttpStatus, code: string, message: string): Reply {
  return { status, body: { success: false, code, message, data: null, errors: null, meta: null } };
}

export function validationError(errors: Record<string, string[]>): Reply {
  return {
    status: 400,
    body: {
      success: false,
      code: "VALIDATION_ERROR",
      message: `invalid request: ${Object.keys(errors).join(", ")}`,
      data: null,
      errors,
      meta: null,
    },
  };
}

/** the HTTP status each refusal code is answered with (docs/supplier.md#http-status-what-the-sandbox-sends-the-client-keys-on-code) */
export const REFUSAL_STATUS: Record<string, HttpStatus> = {
  PRODUCT_NOT_FOUND: 404,
  INQUIRY_NOT_FOUND: 404,
  TRANSACTION_NOT_FOUND: 404,
  PRODUCT_INACTIVE: 200,
  INVALID_CUSTOMER_NO: 200,
  INSUFFICIENT_BALANCE: 200,
  INQUIRY_FAILED: 200,
  INQUIRY_EXPIRED: 200,
  INQUIRY_MISMATCH: 200,
  SERVER_ERROR: 503,
};
