import { useEffect, useState } from "preact/hooks";

/** Hash routes (#/keys, #/generations/gen-123): the server serves one page, the fragment picks what it shows. */
export type Route = { page: string; rest: string[]; params: URLSearchParams };

export function parseHash(hash: string): Route {
  const [path = "", search = ""] = hash.replace(/^#\/?/, "").split("?");
  const [page = "overview", ...rest] = path.split("/").filter(Boolean).map(decodeURIComponent);
  return { page, rest, params: new URLSearchParams(search) };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseHash(location.hash));
    addEventListener("hashchange", onChange);
    return () => removeEventListener("hashchange", onChange);
  }, []);
  return route;
}

export function href(page: string, ...rest: string[]): string {
  return `#/${[page, ...rest].map(encodeURIComponent).join("/")}`;
}
