/** The API's known paths under /v1: which handler, which method, which scope. */

export type RouteName = 'messages.send' | 'messages.batch' | 'contacts.bulk' | 'messages.get' | 'jobs.get' | 'contacts.list' | 'attributes.list' | 'account.get';

export interface Route {
  name: RouteName;
  method: 'GET' | 'POST';
  id?: string;
  scope?: string;
}

/** The route for the path segments after `/v1`, or null (404). */
export function resolveRoute(rest: string[]): Route | null {
  if (rest.length === 1) {
    switch (rest[0]) {
      case 'messages':
        return { name: 'messages.send', method: 'POST', scope: 'messages:write' };
      case 'contacts':
        return { name: 'contacts.list', method: 'GET' };
      case 'contact-attributes':
        return { name: 'attributes.list', method: 'GET' };
      case 'account':
        return { name: 'account.get', method: 'GET' };
    }
    return null;
  }
  if (rest.length === 2 && rest[1] !== '') {
    if (rest[0] === 'messages') {
      if (rest[1] === 'batch') return { name: 'messages.batch', method: 'POST', scope: 'messages:write' };
      return { name: 'messages.get', method: 'GET', id: rest[1] };
    }
    if (rest[0] === 'contacts' && rest[1] === 'bulk') return { name: 'contacts.bulk', method: 'POST', scope: 'contacts:write' };
    if (rest[0] === 'jobs') return { name: 'jobs.get', method: 'GET', id: rest[1] };
  }
  return null;
}

/** Splits a request target into decoded path segments and the query; null segments when the percent-encoding is broken. */
export function splitTarget(url: string): { segs: string[] | null; query: URLSearchParams } {
  const q = url.indexOf('?');
  const rawPath = q === -1 ? url : url.slice(0, q);
  const query = new URLSearchParams(q === -1 ? '' : url.slice(q + 1));
  try {
    return { segs: rawPath.split('/').map((s) => decodeURIComponent(s)), query };
  } catch {
    return { segs: null, query };
  }
}
