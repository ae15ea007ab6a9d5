// Preloaded (`node -r`) into npm start's process by the start test: on SIGUSR2 a piece of the webhook dispatcher's
// work throws an error nobody catches, as a defect in one app's part would once the system runs.
const { asService } = require('@storage/platform');

process.on('SIGUSR2', () => {
  asService('webhook-dispatcher', () =>
    setImmediate(() => {
      throw new Error('a defect in the dispatcher at run time');
    }),
  );
});
