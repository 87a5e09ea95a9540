test('the test runner runs under Node 24 or later', () => {
  expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(24);
});
