/**
 * `crawlspec webhook-receiver [--port N] [--host H]`: the receiver the contract kit's webhook checks read
 * (scripts/contract/wire/webhookReceiver.ts), on a port until SIGINT or SIGTERM. Run where the target can deliver to it
 * and the kit can read it; its address goes to `crawlspec contract --webhook-url`.
 */
import { startWebhookReceiver } from '../contract/wire/webhookReceiver.js';
import { isLoopbackHost } from '../server/reach.js';
import { parseCommand } from './args.js';
import { listenError, listenHost, port as portOption } from './errors.js';
import { printable } from './terminal.js';

export async function webhookReceiverCommand(args: string[]): Promise<number> {
  const { values } = parseCommand(
    'webhook-receiver',
    args,
    { port: { type: 'string' }, host: { type: 'string', default: '127.0.0.1' } },
    false,
  );
  const port = portOption(values.port);
  const host = await listenHost(values.host);
  const receiver = await startWebhookReceiver({ host, port }).catch((error: unknown) => listenError(error, host, port));
  // Listened for before the address is printed: whoever reads it may stop the receiver at once.
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  if (!isLoopbackHost(host))
    console.error(
      printable(
        `crawlspec webhook-receiver: warning: --host ${host} is reachable from other machines: anyone there can deliver to it, and read an inbox whose address they know`,
      ),
    );
  console.log(
    printable(
      `webhook receiver listening on ${receiver.url}; give crawlspec contract --webhook-url ${receiver.url} (an address the target reaches it at); Ctrl-C stops it`,
    ),
  );
  await stopped;
  await receiver.close();
  return 0;
}
