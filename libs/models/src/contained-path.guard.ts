/**
 * True for a '/'-separated relative path that stays inside the directory it is joined to. Names
 * from the models file and from the Hub's file list are joined to cache and model directories.
 */
export function isContainedPath(file: string): boolean {
  return (
    file.length > 0 &&
    !file.startsWith('/') &&
    !file.includes('\\') &&
    file.split('/').every((part) => part !== '' && part !== '.' && part !== '..')
  );
}
