"use client";

import { createContext, useContext, useMemo, useRef } from "react";

// The landing page's player, for what sits around it: the transcript's timestamps seek it. The
// SharePlayer registers its SDK handle here once it has embedded.

export type PlayerCommands = { play(): void; seek(positionMs: number): void };
type PlayerHandle = { register(player: PlayerCommands | null): void; current(): PlayerCommands | null };

const PlayerHandleContext = createContext<PlayerHandle | null>(null);

export function PlayerHandleProvider({ children }: { children: React.ReactNode }) {
  const player = useRef<PlayerCommands | null>(null);
  const handle = useMemo<PlayerHandle>(
    () => ({
      register: (registered) => {
        player.current = registered;
      },
      current: () => player.current,
    }),
    [],
  );
  return <PlayerHandleContext.Provider value={handle}>{children}</PlayerHandleContext.Provider>;
}

/** The page's player handle; null outside a provider. */
export function usePlayerHandle(): PlayerHandle | null {
  return useContext(PlayerHandleContext);
}
