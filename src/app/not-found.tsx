// The `*` route; the component itself lives in src/ui because the profile screen shows it too.
export { NotFound } from '../ui/NotFound';
