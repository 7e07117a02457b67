// The sending side of the messaging layer (docs/adr/0002): a Nest ClientProxy whose emit()
// writes the message to the outbox in the caller's transaction, never to Kafka. The relay
// publishes it once the transaction commits (docs/adr/0004), so a command is sent if and only
// if the change that asked for it committed.
//
//   await lastValueFrom(new OutboxClient(tx).emit(TOPICS.paymentsCommands, command));

import { ClientProxy, type ReadPacket, type WritePacket } from '@nestjs/microservices';
import type { Tx } from '../db/database';

/** What goes on the bus: the envelope's id is the message id (consumers dedupe on it). */
export interface OutboxEnvelope {
  id: string;
  /** The message key: one account's messages keep their order. */
  account: string;
}

export class OutboxClient extends ClientProxy {
  /** The transaction the messages are written in: the caller's, named at each call site. */
  constructor(private readonly tx: Tx) {
    super();
  }

  async connect(): Promise<void> {}

  close(): void {}

  unwrap<T>(): T {
    return this.tx as T;
  }

  /** emit(topic, envelope): the outbox row, in the transaction given to the constructor. */
  protected async dispatchEvent<T = undefined>(packet: ReadPacket<OutboxEnvelope>): Promise<T> {
    const { pattern, data } = packet;
    if (typeof pattern !== 'string') throw new Error('OutboxClient.emit: the pattern is the topic name');
    await this.tx.publish({ topic: pattern, key: data.account, id: data.id, payload: data });
    return undefined as T;
  }

  /** send() expects a reply; the bus carries events and commands one way (answers are events). */
  protected publish(_packet: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    callback({ err: new Error('OutboxClient has no replies: use emit()'), isDisposed: true });
    return () => undefined;
  }
}
