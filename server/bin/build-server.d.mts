// Types of build-server.mjs, a plain module so that `npm start` runs it without tsx.
export declare const serverOut: string;
export declare const serverSources: string[];
export declare function buildServer(): Promise<void>;
export declare function newestMtime(relative: string): number;
export declare function ensureServerBuilt(): Promise<string>;
