// The hint service's JSON API, seen from the page.  Every error answer of the service
// has one shape, {"error": {type, message, field, problems}}; it is thrown as ApiError.

export class ApiError extends Error {
  constructor(status, detail) {
    super(detail.message);
    this.status = status;
    this.type = detail.type;
    this.field = detail.field || null;
    this.problems = detail.problems && detail.problems.length ? detail.problems : [detail.message];
  }
}

async function request(path, options) {
  let response;
  try {
    response = await fetch(path, { headers: { Accept: "application/json" }, ...options });
  } catch {
    throw new ApiError(0, {
      type: "network",
      message: "The hint service cannot be reached: is `rummy serve` still running?",
    });
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const detail = (data && data.error) || {
      type: "http",
      message: `The service answered ${response.status} ${response.statusText}.`,
    };
    throw new ApiError(response.status, detail);
  }
  return data;
}

export function get(path) {
  return request(path, { method: "GET" });
}

export function post(path, body) {
  return request(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
}

/** POST a text body of the given media type (an exported game's JSON lines, for the import). */
export function postText(path, text, type) {
  return request(path, {
    method: "POST",
    headers: { "Content-Type": type, Accept: "application/json" },
    body: text,
  });
}
