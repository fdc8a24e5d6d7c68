// The words of each report reason, for the report sheet and the operators' console only: a module of its own,
// so that the shell, which needs the reasons' schema (the outbox), does not carry their labels.
import type { ReportReason } from './interactions';

export const reportReasonLabels: Record<ReportReason, string> = {
  innapropiate: 'Inappropriate content',
  copyright: 'Copyright infringement',
  'wrong-hashtag': 'Wrong hashtag',
  spam: 'Spam',
  'hateful-content': 'Hateful content',
  'rape-sexual-assault': 'Rape or sexual assault',
  violence: 'Violence',
  death: 'Death',
  deepfake: 'Deepfake',
  drugs: 'Drugs',
  underage: 'Underage',
  consent: 'Lack of consent',
  other: 'Other',
};
