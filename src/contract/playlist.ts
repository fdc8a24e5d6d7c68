// The HLS playlists the server publishes (server/media) and the player reads ahead (src/features/feed): one
// reading of their URI lines for both. (index.html's boot script repeats it inline: it cannot import.)

/** The URIs a playlist names, in order: variants of a master playlist, segments of a media playlist. */
export const playlistUris = (playlist: string): string[] =>
  playlist
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
