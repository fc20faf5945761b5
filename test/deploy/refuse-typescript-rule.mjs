/** Why loading `specifier` (resolved to `file`) is refused, or null: tsx (or any file of it) and TypeScript sources. */
export function refusal(specifier, file) {
  if (/^tsx(\/|$)/.test(specifier) || /[/\\]node_modules[/\\]tsx[/\\]/.test(file)) return `refused TypeScript loader: ${specifier}`;
  if (/\.(ts|tsx|mts|cts)$/.test(file)) return `refused TypeScript source: ${file}`;
  return null;
}
