// What every room screen is given: the room's state and the way to talk to the server.

import type { Navigate } from "../home";
import type { ClientMessage } from "../protocol";
import type { RoomStore } from "./store";

export interface RoomContext {
  readonly code: string;
  readonly store: RoomStore;
  /** send a message to the room; false when not connected */
  send(msg: ClientMessage): boolean;
  /** the server's clock, in ms */
  now(): number;
  go: Navigate;
}
