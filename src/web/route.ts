import { useEffect, useState } from 'preact/hooks';

/**
 * Pages live in the URL's hash (`#/dashboard?interval=week`), so no page path can ever be
 * mistaken for an API path and the server serves the app at `/` alone.
 */
export interface Route {
  path: string;
  params: URLSearchParams;
}

export function currentRoute(): Route {
  const hash = window.location.hash.replace(/^#/, '') || '/';
  const [path = '/', query = ''] = hash.split('?', 2);
  return { path, params: new URLSearchParams(query) };
}

export function href(path: string, params?: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params ?? {})) if (value) query.set(name, value);
  const text = query.toString();
  return `#${path}${text ? `?${text}` : ''}`;
}

export function navigate(path: string, params?: Record<string, string | undefined>): void {
  window.location.hash = href(path, params);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const changed = () => setRoute(currentRoute());
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return route;
}
