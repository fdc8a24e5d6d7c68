import { atom } from 'jotai';
import type { OwnProfile } from '../contract';

/**
 * The signed-in account as GET /v1/profile last gave it, shared by the account, settings and upload screens;
 * src/api/useOwnProfile.ts loads it.
 */
export const ownProfileAtom = atom<OwnProfile | null>(null);
