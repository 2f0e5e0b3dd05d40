import type { Envelope, HttpStatus, Reply } from "./types.ts";

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
  const fields = Object.keys(errors).join(", ");
  return {
    status: 400,
    body: {
      success: false,
      code: "VALIDATION_ERROR",
      message: `invalid request: ${fields}`,
      data: null,
      errors,
      meta: null,
    },
  };
}

export const SERVER_ERROR_BODY: Envelope = {
  success: false,
  code: "SERVER_ERROR",
  message: "internal server error",
  data: null,
  errors: null,
  meta: null,
};
