/** Until the app-wide auth state lands, a viewer with a stored token counts as logged in. */
export function useIsGuest(): boolean {
  return !(localStorage.getItem('accessToken') ?? sessionStorage.getItem('accessToken'));
}
