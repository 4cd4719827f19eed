import { EventEmitter, once } from 'node:events';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/**
 * The SDK's stdio transport, keeping count of unanswered requests. A script may write its
 * requests and close stdin at once; closing the server then would abort the calls still running,
 * so `parley mcp` first waits for `answered()`.
 */
export class AnsweringStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  private readonly stdio = new StdioServerTransport();
  private readonly unanswered = new Set<RequestId>();
  private readonly events = new EventEmitter();

  async start(): Promise<void> {
    this.stdio.onmessage = (message) => {
      if (isJSONRPCRequest(message)) this.unanswered.add(message.id);
      this.onmessage?.(message);
    };
    this.stdio.onclose = () => this.onclose?.();
    this.stdio.onerror = (error) => this.onerror?.(error);
    await this.stdio.start();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    await this.stdio.send(message);
    if ((isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && message.id !== undefined) {
      this.unanswered.delete(message.id);
      this.events.emit('answered');
    }
  }

  close(): Promise<void> {
    return this.stdio.close();
  }

  /** Resolves once every request received so far has been answered. */
  async answered(): Promise<void> {
    while (this.unanswered.size > 0) await once(this.events, 'answered');
  }
}
