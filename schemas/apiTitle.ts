/** The API's name, in every OpenAPI document and documentation page (a page adds its version: `... (v2)`). */
export const API_TITLE = 'Crawl and batch scrape API';
