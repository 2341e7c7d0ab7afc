declare module "*.sql" {
  const text: string;
  export default text;
}

declare module "*/standalone.js" {
  const path: string;
  export default path;
}

declare module "*.css" {
  const text: string;
  export default text;
}
