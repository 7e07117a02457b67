process.env.PAYGRID_TEST_MODE = 'embedded';
