// The rating screen's lists (GET /v1/video-rating/{unrated,rated}, server/routes/feeds.ts). Apart from
// videos.ts, which the home feed loads on every first visit.

export type RatingListType = 'unrated' | 'rated';

/** Spec §9: the rating lists load 30 a page, the gender filter fixed to m. */
export const RATING_PAGE_SIZE = 30;

/** GET /v1/video-rating/{type}: the first page of the videos this viewer has (not) rated yet. */
export const ratingListPath = (type: RatingListType) =>
  `/v1/video-rating/${type}?page=1&per_page=${RATING_PAGE_SIZE}&gender=m`;
