// Every user-visible text that the spec fixes word for word lives here, so the client and the server
// cannot drift apart. Keys are grouped by screen.
export const messages = {
  notFound: {
    title: 'Page Not Found',
    body: "The page you're looking for doesn't exist.",
  },
  page: { notFound: 'Page not found' },
  video: { notFound: 'Video not found' },
  server: {
    internal: 'Something went wrong, try again later.',
    notFound: 'Not found.',
    unauthenticated: 'Unauthenticated.',
    forbidden: 'This action is unauthorized.',
    validation: 'The given data was invalid.',
    badRequest: 'The request could not be understood.',
  },
} as const;
