// Runs against a server the test command started (HOLDFAST_URL), in
// Debian's Chromium: Playwright never downloads a browser here.
const { defineConfig } = require('@playwright/test');

module.exports = defineConfig({
  testDir: './tests',
  timeout: 60_000,
  retries: 0,
  workers: 1,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: process.env.HOLDFAST_URL || 'http://127.0.0.1:3000',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
    screenshot: 'only-on-failure',
  },
});
