import { createContext } from 'react';
import type { LiveConnection } from './connection';

/** The tab's live connection (LiveProvider); undefined outside one, where the live hooks do nothing. */
export const LiveContext = createContext<LiveConnection | undefined>(undefined);
