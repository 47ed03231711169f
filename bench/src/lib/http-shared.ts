export const HTTP_QUERY_SALT = 'http';
export const HTTP_QUERIES = 500;
