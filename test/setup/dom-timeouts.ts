// Renderer tests wait for lazy chunks and store updates with findBy*/waitFor. Their default
// of one second is shorter than a loaded two-core machine sometimes needs (seen in CI with
// several test processes running); a longer limit changes nothing when the test passes and
// only delays the report when it fails.
if (typeof document !== 'undefined') {
  const { configure } = await import('@testing-library/react');
  configure({ asyncUtilTimeout: 5_000 });
}
export {};
