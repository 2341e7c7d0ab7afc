declare module "*.sql" {
  const text: string;
  export default text;
}

declare module "*/standalone.js" {
  const path: string;
  export default path;
}

/** the web console's bundle (src/console/assets), imported as text */
declare module "*/console.bundle.js" {
  const text: string;
  export default text;
}

declare module "*.css" {
  const text: string;
  export default text;
}
