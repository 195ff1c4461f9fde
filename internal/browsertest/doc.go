// Package browsertest lets tests look at what stateproof draws the way a
// person would: in Debian's Chromium, driven headless through the DevTools
// protocol (github.com/chromedp/chromedp), and with the real Mermaid
// renderer from the npm registry. It also installs TypeScript's compiler
// from the registry for the tests of the generated TypeScript code.
//
// A missing browser or npm skips the test with a message, and fails it
// when CI=true: CI installs both (see .ci/run).
package browsertest
