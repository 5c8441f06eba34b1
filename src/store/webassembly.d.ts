// The libraries the service compiles against (ES2023 and Node's types, no DOM) declare nothing of
// WebAssembly, which Node has; the store compiles PGlite's modules itself and only passes them on.
declare namespace WebAssembly {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- opaque here: only handed to PGlite
  interface Module {}
  function compile(bytes: Uint8Array): Promise<Module>;
}
