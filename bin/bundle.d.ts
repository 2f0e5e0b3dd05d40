/** the bundle's entry under root, if it exists and no .ts under src/ or packages/ is newer */
export function currentBundle(root: string): string | undefined;
