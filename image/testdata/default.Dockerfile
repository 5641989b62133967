# Written by rdbgen 0.1.0: redis-server with the dataset of dump.rdb in /data, loaded at start-up.
FROM redis:7.4
COPY --chown=999:999 dump.rdb /data/dump.rdb
LABEL io.rdbgen.version="0.1.0" io.rdbgen.rdb-version="9" io.rdbgen.persist="false" io.rdbgen.keys="3" io.rdbgen.checksum="00000000000000ff"
# No save points and appendonly off: the server never writes the dump back.
# Arguments after the image name in docker run are added to the server's.
ENTRYPOINT ["docker-entrypoint.sh","redis-server","--dir","/data","--dbfilename","dump.rdb","--appendonly","no","--save",""]
CMD []
