export function diskSourceMaps(root: string): (sourceURL: string) => unknown;
export function installStackMaps(root: string): void;
