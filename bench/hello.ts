import fs from 'node:fs';
import Fastify from 'fastify';

/**
 * The baseline: a bare Fastify HTTPS hello-world with the same certificate as the Parley server
 * under test, started as a child process by bench/run.ts (env HELLO_CERT, HELLO_KEY, PORT).
 */
const app = Fastify({
  https: { cert: fs.readFileSync(process.env.HELLO_CERT ?? ''), key: fs.readFileSync(process.env.HELLO_KEY ?? '') },
  logger: false,
});
app.get('/', (_request, reply) => reply.send({ hello: 'world' }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
